/**
 * The unread sound (data-unread-sound, issue 24): two short soft tones made with Web Audio, no
 * file to fetch. The visitor has clicked the launcher before any message can be unread, so the
 * page may play sound; where it may not, or there is no Web Audio, nothing plays and nothing
 * breaks.
 */
let audio: AudioContext | null = null;

export function playChime(): void {
  try {
    audio ??= new AudioContext();
    void audio.resume().catch(() => {});
    const start = audio.currentTime;
    [880, 660].forEach((frequency, i) => {
      const at = start + i * 0.15;
      const tone = audio!.createOscillator();
      const gain = audio!.createGain();
      tone.frequency.value = frequency;
      gain.gain.setValueAtTime(0.0001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + 0.14);
      tone.connect(gain).connect(audio!.destination);
      tone.start(at);
      tone.stop(at + 0.15);
    });
  } catch {
    // No Web Audio here: the badge and the launcher's name still tell.
  }
}
