/**
 * Runs in the renderer's isolated world before the page. Exposes nothing yet: the page signs in
 * through the login URL like a browser tab.
 */
export {};
