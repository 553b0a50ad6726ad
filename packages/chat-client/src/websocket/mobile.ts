/** Mobile browsers (docs/protocol.md §3.9): chatjs's user-agent check. */

const MOBILE_USER_AGENT = /Android|webOS|Mobi|iPhone|iPad|iPod|BlackBerry|IEMobile|Opera Mini/i;

export const isMobileUserAgent = (userAgent: string): boolean => MOBILE_USER_AGENT.test(userAgent);
