// Types of the pure parts of build-electron-sqlite.mjs, for the tests that import them.
export declare const ROOT: string;
export declare const ADDON_FILE: string;
export declare const ELECTRON_HEADERS_URL: string;
export declare const PACKAGE_PARTS: string[];
export declare function outputPaths(root?: string): { dir: string; addon: string; info: string };
export declare function electronVersion(root?: string): string;
export declare function betterSqlite3Package(root?: string): { dir: string; version: string };
export declare function prebuildArgs(o: { version: string; arch: string; platform: string }): string[];
export declare function nodeGypArgs(o: { version: string; arch: string }): string[];
export declare function option(argv: string[], name: string): string | undefined;
export declare function nodeGypCommand(env?: Record<string, string | undefined>, execPath?: string): { command: string; prefix: string[] };
export declare function buildEnv(env?: Record<string, string | undefined>): Record<string, string | undefined>;
export declare function main(argv?: string[], root?: string): void;
