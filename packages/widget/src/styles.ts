/**
 * Every style of the widget, inlined into its shadow root (docs/product.md §2, §9; docs/decisions.md #7: the host
 * page may set --chat-widget-primary-color, --chat-widget-font-family and --chat-widget-logo).
 * Text on a primary surface uses --cw-on-primary, primary-coloured text --cw-primary-text: both
 * chosen by contrast for the host's colour at mount (contrast.ts); the defaults are #e56606's.
 */
const DEFAULT_LOGO =
  "url(\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 24 24' fill='white'%3E%3Cpath d='M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2z'/%3E%3C/svg%3E\")";

/**
 * The dark scheme (issue 24): `data-color-scheme="dark"`, or the visitor's system preference
 * when it is `auto` (the default). Every text colour here reads at 4.5:1 on its surface.
 */
const DARK =
  "--cw-fg:#ececef;--cw-primary-text:var(--cw-dark-primary-text,#e56606);--cw-bg:#1f1f23;--cw-surface:#141416;--cw-muted:#a1a1aa;--cw-line:#3f3f46;--cw-edge:#71717a;--cw-hover:#2e2e33;--cw-agent:color-mix(in srgb,var(--cw-primary) 18%,#1f1f23);--cw-danger:#fca5a5;color-scheme:dark";

/**
 * What the launcher needs (the button, its badge, the loading indicator, the error notice, the
 * focus rings): all the first script paints with (launcher/paint.ts), so it carries no more.
 */
export const launcherStyles = `
:host{--cw-primary:var(--chat-widget-primary-color,#e56606);--cw-font:var(--chat-widget-font-family,"Poppins",sans-serif);all:initial}
*{box-sizing:border-box}
.cw{--cw-on-primary:#1a1a1a;--cw-primary-text:var(--cw-light-primary-text,#b95104);--cw-bg:#fff;--cw-surface:#f7f7f8;--cw-muted:#52525b;--cw-line:#e4e4e7;--cw-edge:#d4d4d8;--cw-hover:#f4f4f5;--cw-agent:#fff4ec;--cw-danger:#b91c1c;font-family:var(--cw-font);font-weight:500;font-size:14px;line-height:1.4;color:var(--cw-fg,#1f1f1f)}
.cw.dark{${DARK}}
@media (prefers-color-scheme:dark){.cw.auto{${DARK}}}
.cw button{font:inherit;cursor:pointer}
.cw button:disabled{cursor:default;opacity:.5}
@keyframes cw-appear{from{opacity:0;transform:scale(.6)}to{opacity:1;transform:scale(1)}}
@keyframes cw-rotate{to{transform:rotate(360deg)}}
.appear{animation:cw-appear .2s ease-out}
.rotate{animation:cw-rotate 2s linear infinite}
.launcher{position:fixed;right:calc(25px + var(--cw-inset-right,0px));bottom:calc(25px + var(--cw-inset-bottom,0px));width:75px;height:75px;border:0;border-radius:10px 10px 0 0;z-index:999;background:var(--cw-primary);color:var(--cw-on-primary);display:flex;align-items:center;justify-content:center;box-shadow:0 4px 14px rgba(0,0,0,.25);padding:0}
.launcher svg{width:36px;height:36px}
.badge{position:absolute;top:-8px;right:-8px;min-width:24px;height:24px;padding:0 6px;border-radius:12px;background:#b42318;color:#fff;font-size:12px;line-height:24px;text-align:center;box-shadow:0 0 0 2px #fff}
.loading-indicator{position:fixed;right:110px;bottom:50px;width:26px;height:26px;z-index:999;color:var(--cw-primary-text)}
.loading-indicator svg{width:26px;height:26px;display:block}
.loading-indicator.alone{right:50px}
.error-notice{position:fixed;right:25px;bottom:25px;z-index:999;max-width:300px;background:#fff;color:#b42318;border:1px solid #f3c3bd;border-inline-start:4px solid #b42318;border-radius:10px 10px 0 0;padding:14px 16px;box-shadow:0 4px 14px rgba(0,0,0,.2)}
.cw button:focus-visible,.transcript:focus-visible{outline:2px solid var(--cw-primary-text);outline-offset:2px}
.launcher:focus-visible{outline:3px solid var(--cw-primary-text);outline-offset:3px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
`;

/** Reduced motion stops every animation: last, so it overrides the window's too. */
const motionStyles = `
@media (prefers-reduced-motion:reduce){.appear,.rotate,.typing .dot{animation:none}}
`;

/** The first script's styles: the launcher's, with reduced motion. */
export const paintedStyles = launcherStyles + motionStyles;

/** The window, transcript, composer and the rest React draws. */
const windowStyles = `
:host{--cw-logo:var(--chat-widget-logo,${DEFAULT_LOGO})}
@keyframes cw-dots{0%,60%,100%{opacity:.25;transform:translateY(0)}30%{opacity:1;transform:translateY(-4px)}}
.window{position:fixed;right:25px;bottom:25px;width:350px;height:540px;z-index:999;display:flex;flex-direction:column;background:var(--cw-bg);border-radius:10px 10px 0 0;overflow:hidden;box-shadow:0 6px 24px rgba(0,0,0,.25)}
.window.dragging{outline:3px dashed var(--cw-primary);outline-offset:-3px}
.header{flex:none;display:flex;align-items:center;justify-content:space-between;background:var(--cw-primary);color:var(--cw-on-primary);padding:6px 10px}
.logo{height:56px;width:120px;background-image:var(--cw-logo);background-repeat:no-repeat;background-size:contain;background-position:left center}
.header-actions{display:flex;gap:4px}
.icon-button{background:transparent;border:0;color:inherit;width:32px;height:32px;padding:4px;border-radius:6px;display:flex;align-items:center;justify-content:center}
.icon-button:hover{background:rgba(255,255,255,.2)}
.icon-button svg{width:20px;height:20px}
.transcript{flex:1 1 auto;max-height:540px;overflow-y:auto;padding:12px;display:flex;flex-direction:column;gap:8px;background:var(--cw-surface)}
.message{max-width:80%;padding:8px 12px;border-radius:12px;word-wrap:break-word;overflow-wrap:anywhere}
.message.incoming{align-self:flex-start;background:var(--cw-bg);border:1px solid var(--cw-line);border-end-start-radius:2px}
.message.agent{background:var(--cw-agent);border-color:color-mix(in srgb,var(--cw-primary) 35%,var(--cw-bg))}
.message.outgoing{align-self:flex-end;background:var(--cw-primary);color:var(--cw-on-primary);border-end-end-radius:2px;white-space:pre-wrap}
.plain{white-space:pre-wrap}
.time{margin:-4px 4px 0;font-size:11px;line-height:13px;color:var(--cw-muted)}.time.outgoing{align-self:flex-end}.time.incoming{align-self:flex-start}
.message .name{display:block;font-size:11px;opacity:.7;margin-bottom:2px}
.event{align-self:center;font-size:12px;color:var(--cw-muted);font-style:italic;text-align:center}
.typing{align-self:flex-start;display:flex;gap:4px;padding:10px 12px;background:var(--cw-bg);border:1px solid var(--cw-line);border-radius:12px}
.typing .dot{width:7px;height:7px;border-radius:50%;background:#8a8a93;animation:cw-dots 2.5s infinite ease-in-out}
.typing .dot:nth-child(2){animation-delay:.3s}.typing .dot:nth-child(3){animation-delay:.6s}
.typing{align-items:center}.typing .who{margin-inline-start:4px;font-size:12px;color:var(--cw-muted)}
.uploads{flex:none;padding:4px 12px;font-size:12px;color:var(--cw-muted)}
.uploads progress{width:100%;accent-color:var(--cw-primary)}
.file-notice{flex:none;margin:0 12px 4px;padding:6px 10px;font-size:12px;color:#b42318;background:#fef3f2;border:1px solid #f3c3bd;border-radius:8px}
.file-notice .reason{display:block;color:#555}
.composer{position:relative;flex:none;display:flex;align-items:flex-end;gap:6px;max-height:60px;padding:8px;border-top:1px solid var(--cw-line);background:var(--cw-bg)}
.composer textarea{flex:1;resize:none;height:44px;max-height:44px;border:1px solid var(--cw-edge);border-radius:8px;padding:6px 8px;font:inherit;font-size:13px;color:inherit;background:var(--cw-bg)}
.composer textarea:disabled{background:var(--cw-hover)}
.delivery{align-self:flex-end;margin:-4px 2px 2px;font-size:11px;color:var(--cw-muted)}
.delivery.failed{color:var(--cw-danger);display:flex;align-items:center;gap:6px}
.delivery.failed button{font:inherit;font-size:11px;color:var(--cw-primary-text);background:none;border:1px solid currentColor;border-radius:6px;padding:1px 6px;cursor:pointer}
.ending{flex:none;display:flex;flex-wrap:wrap;align-items:center;gap:8px;padding:10px 12px;border-top:1px solid var(--cw-line);background:var(--cw-bg)}.ending p{margin:0;flex-basis:100%}
.ending button{border:1px solid var(--cw-primary-text);border-radius:8px;padding:6px 12px;background:var(--cw-bg);color:var(--cw-primary-text)}.ending .primary{background:var(--cw-primary);border-color:var(--cw-primary);color:var(--cw-on-primary)}
.reconnecting{flex:none;padding:6px 12px;font-size:12px;line-height:16px;color:#78350f;background:#fef3c7;border-top:1px solid #fde68a}
.composer .counter{position:absolute;inset-inline-end:54px;bottom:10px;font-size:11px;line-height:13px;color:var(--cw-muted);background:var(--cw-bg);border-radius:4px;padding:0 3px;pointer-events:none}
.composer .counter.over{color:var(--cw-danger)}
.composer textarea:focus{outline:2px solid var(--cw-primary);outline-offset:-1px;border-color:transparent}
.composer .icon-button{color:var(--cw-primary-text)}
.composer .icon-button:hover{background:var(--cw-hover)}
.header .icon-button:focus-visible{outline-color:var(--cw-on-primary);outline-offset:-2px}
@media (max-width:479.98px){.window{top:var(--cw-viewport-top,0);left:0;right:0;bottom:auto;width:100%;height:var(--cw-viewport-height,100%);border-radius:0;padding:env(safe-area-inset-top) env(safe-area-inset-right) env(safe-area-inset-bottom) env(safe-area-inset-left)}.transcript{max-height:none}}
`;

/** Every style of the widget, in the order the cascade needs. */
export const styles = launcherStyles + windowStyles + motionStyles;
