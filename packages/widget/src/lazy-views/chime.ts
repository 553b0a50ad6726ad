/**
 * The unread sound (data-unread-sound, issue 24): two short soft tones made with Web Audio, no
 * file to fetch. Where the page may not play sound yet (a chat resumed on a new page before
 * the visitor touched it) the chime waits a moment for leave, then is dropped: never heard late,
 * in a burst. Where there is no Web Audio, nothing plays and nothing breaks.
 */
let audio: AudioContext | null = null;

/** How long a chime may wait for the page to be allowed to play sound. */
export const CHIME_WAIT_MS = 1000;

function tones(context: AudioContext): void {
  const start = context.currentTime;
  [880, 660].forEach((frequency, i) => {
    const at = start + i * 0.15;
    const tone = context.createOscillator();
    const gain = context.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, at);
    gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
    tone.connect(gain).connect(context.destination);
    tone.start(at);
    tone.stop(at + 0.15);
  });
}

export function playChime(): void {
  try {
    audio ??= new AudioContext();
    const context = audio;
    if (context.state === "running") return tones(context);
    const asked = Date.now();
    context.resume().then(
      () => {
        if (Date.now() - asked <= CHIME_WAIT_MS) tones(context);
      },
      () => {},
    );
  } catch {
    // No Web Audio here: the badge and the launcher's name still tell.
  }
}
