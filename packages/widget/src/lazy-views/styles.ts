/** The rare views' styles (markdown, attachments), added to the shadow root once they load. */
export const viewStyles = `
.markdown>:first-child{margin-top:0}.markdown>:last-child{margin-bottom:0}
.markdown p,.markdown ul,.markdown ol,.markdown pre,.markdown blockquote{margin:0 0 6px}
.markdown ul,.markdown ol{padding-inline-start:20px}
.markdown pre{background:var(--cw-hover);padding:6px;border-radius:6px;overflow-x:auto;white-space:pre-wrap}
.markdown code{font-family:ui-monospace,monospace;font-size:12px}
.markdown blockquote{border-inline-start:3px solid var(--cw-line);padding-inline-start:8px;color:var(--cw-muted)}
.markdown h3,.markdown h4,.markdown h5,.markdown h6{margin:0 0 4px;font-size:15px}
.markdown a,.attachment a{color:inherit}
.attachment button{background:none;border:0;padding:0;color:inherit;text-decoration:underline}
.thumbnail{display:block;max-width:100%;max-height:160px;border-radius:6px;margin-bottom:4px}
.attachment progress{display:block;width:100%;accent-color:var(--cw-primary)}
.template{align-self:flex-start;max-width:85%;background:var(--cw-bg);border:1px solid var(--cw-line);border-radius:12px;padding:10px 12px}
.template .title{margin-bottom:8px}
.template ul{list-style:none;margin:0;padding:0;display:flex;flex-direction:column;gap:6px}
.template ul.chips{flex-direction:row;flex-wrap:wrap}
.option{width:100%;text-align:start;background:var(--cw-bg);color:var(--cw-primary-text);border:1px solid var(--cw-primary-text);border-radius:8px;padding:6px 10px}
.option.chip{width:auto;border-radius:16px}
.option:not(:disabled):hover{background:var(--cw-primary);color:var(--cw-on-primary)}
.option .subtitle{display:block;font-size:11px;color:var(--cw-muted)}
.option:not(:disabled):hover .subtitle{color:inherit}
.template-image{display:block;max-width:100%;max-height:120px;border-radius:6px;margin-bottom:6px}
.option .template-image{max-height:48px}
.day-label{margin:6px 0 4px;font-size:12px;font-weight:600}
.carousel-nav{display:flex;align-items:center;justify-content:space-between;margin-top:8px;font-size:12px;color:var(--cw-muted)}
.carousel-nav button{min-width:32px;min-height:32px;background:var(--cw-bg);color:var(--cw-primary-text);border:1px solid var(--cw-primary-text);border-radius:16px;font-size:18px;line-height:1}
`;
