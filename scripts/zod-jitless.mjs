// zod as the CLI bundle sees it: the same exports, with parser compilation off (see bundle-options.mjs).
import { config } from 'zod';

config({ jitless: true });
export * from 'zod';
