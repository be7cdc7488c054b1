// What every screen needs to know about the terminal: the language's strings and Unicode safety.
import { createContext, useContext } from 'react';
import { en, type Strings } from '../src/i18n/en.js';

export interface Ui {
  t: Strings;
  unicode: boolean;
}
export const UiContext = createContext<Ui>({ t: en, unicode: true });
export const useUi = (): Ui => useContext(UiContext);
