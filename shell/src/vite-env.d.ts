/// <reference types="vite/client" />
declare const __MFE_VERSION__: string;

declare module 'virtual:__federation__' {
  export interface IRemoteConfig {
    url: string | (() => Promise<string>);
    format?: 'esm' | 'systemjs' | 'var';
    from?: 'vite' | 'webpack';
  }
  export function __federation_method_setRemote(name: string, config: IRemoteConfig): void;
  export function __federation_method_getRemote(name: string, exposed: string): Promise<unknown>;
  export function __federation_method_unwrapDefault(module: unknown): Promise<unknown> | unknown;
}
