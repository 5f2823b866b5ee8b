import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

/**
 * `vite build --mode emulator` (the default `npm run build`) reads `.env.emulator`: a bundle for the local
 * emulator stack. `vite build --mode production` reads the real project values from the environment.
 */
export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      "@/": fileURLToPath(new URL("./src/", import.meta.url)),
      "@alpvault/contracts/": fileURLToPath(new URL("../contracts/src/", import.meta.url)),
    },
  },
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
  server: { port: 6100, strictPort: false },
  preview: { port: 6101, strictPort: false },
});
