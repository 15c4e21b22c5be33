import { defineConfig } from 'vite';
import { shellConfig } from '../packages/vite-config/index';

export default defineConfig(shellConfig({ root: import.meta.dirname, port: 5173 }));
