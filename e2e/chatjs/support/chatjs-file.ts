import { useBrowserFile, type BrowserFile } from "../../support/browser-file.js";
import {
  startContactCentre,
  type ContactCentreServer,
} from "../../../packages/server/test/client/support/contact-centre.js";
import { startPageServer, type PageServer } from "./page-server.js";

/** A chatjs file's contact centre and the page server on another origin that it allows. */
export interface ChatjsCentre {
  server: ContactCentreServer;
  pages: PageServer;
  close(): Promise<void>;
}

/** The set-up of every chatjs file (browser-file.ts): the page server, the centre, Chromium. */
export function useChatjsFile(): BrowserFile<ChatjsCentre> {
  return useBrowserFile(async () => {
    const pages = await startPageServer();
    const server = await startContactCentre({ env: { ALLOWED_ORIGINS: pages.origin } });
    return {
      server,
      pages,
      async close() {
        await server.close();
        await pages.close();
      },
    };
  });
}
