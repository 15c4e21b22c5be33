import { defineConfig } from 'vite';
import { remoteConfig } from '../packages/vite-config/index';

export default defineConfig(remoteConfig({ root: import.meta.dirname, name: 'admin', port: 5177, serverRender: false }));
