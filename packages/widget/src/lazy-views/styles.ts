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
`;
