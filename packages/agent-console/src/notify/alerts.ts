/**
 * Desktop notifications and a sound for what needs the advisor (issue 60): asked for once, from
 * a click (browsers refuse a permission prompt nobody asked for); each preference kept in this
 * browser. The sound is a short tone made on the spot (no file to load).
 */
import { useCallback, useState } from "react";

const NOTIFY_KEY = "agent-console.notifications";
const SOUND_KEY = "agent-console.sound";

const stored = (key: string) => {
  try {
    return window.localStorage.getItem(key) === "on";
  } catch {
    return false;
  }
};
const store = (key: string, on: boolean) => {
  try {
    window.localStorage.setItem(key, on ? "on" : "off");
  } catch {
    /* private mode: the choice lasts this page */
  }
};

const supported = () => typeof window.Notification === "function";

function tone() {
  const Context =
    window.AudioContext ??
    (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
  if (!Context) return;
  const audio = new Context();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = 880;
  gain.gain.setValueAtTime(0.15, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + 0.25);
  osc.onended = () => void audio.close();
}

export interface Alerts {
  notifications: "on" | "off" | "denied" | "unsupported";
  sound: boolean;
  /** From a click: ask for permission (once), or turn them off. */
  toggleNotifications(): Promise<void>;
  toggleSound(): void;
  alert(title: string, body: string, tag: string): void;
}

export function useAlerts(): Alerts {
  const initial = (): Alerts["notifications"] =>
    !supported()
      ? "unsupported"
      : Notification.permission === "denied"
        ? "denied"
        : Notification.permission === "granted" && stored(NOTIFY_KEY)
          ? "on"
          : "off";
  const [notifications, setNotifications] = useState(initial);
  const [sound, setSound] = useState(() => stored(SOUND_KEY));

  const toggleNotifications = useCallback(async () => {
    if (!supported()) return;
    if (notifications === "on") {
      store(NOTIFY_KEY, false);
      setNotifications("off");
      return;
    }
    const permission =
      Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
    store(NOTIFY_KEY, permission === "granted");
    setNotifications(permission === "granted" ? "on" : permission === "denied" ? "denied" : "off");
  }, [notifications]);

  const toggleSound = useCallback(() => {
    setSound((on) => {
      store(SOUND_KEY, !on);
      return !on;
    });
  }, []);

  const alert = useCallback(
    (title: string, body: string, tag: string) => {
      if (notifications === "on" && supported() && Notification.permission === "granted")
        new Notification(title, { body, tag });
      if (sound) {
        try {
          tone();
        } catch {
          /* no audio here: the notification and the title still tell */
        }
      }
    },
    [notifications, sound],
  );
  return { notifications, sound, toggleNotifications, toggleSound, alert };
}
