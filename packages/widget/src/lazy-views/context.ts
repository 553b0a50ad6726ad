/** The rare views once loaded (null until then), for the components that show them. */
import { createContext, useContext } from "react";
import type { LazyViews } from "./contract.js";

export const ViewsContext = createContext<LazyViews | null>(null);

export const useViews = (): LazyViews | null => useContext(ViewsContext);
