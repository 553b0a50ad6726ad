/** The active locale's texts, for every view of the widget (English until another loads). */
import { createContext, useContext } from "react";
import { en, type Texts } from "./texts.js";

export const TextsContext = createContext<Texts>(en);

export const useTexts = (): Texts => useContext(TextsContext);
