/**
 * Downloads as component tests see them: jsdom has no `URL.createObjectURL` and cannot follow a link, so
 * a file the page saves (`lib/save-file.ts`: a link added to the page's body and clicked) is recorded here
 * instead, with its name, address and content. `setup.ts` installs it before each test.
 */

export interface Download {
  /** The link's address: a `blob:` address for a file the page holds, else the file's own address. */
  href: string;
  /** The name the file is saved as (the link's `download`), or null for a link the browser follows. */
  fileName: string | null;
  /** The file's content, for a file the page holds. */
  blob: Blob | null;
}

const blobs = new Map<string, Blob>();
const recorded: Download[] = [];

/** Every download since the test began, oldest first. */
export function downloads(): readonly Download[] {
  return recorded;
}

function record(event: MouseEvent): void {
  const link = (event.target as Element | null)?.closest?.("a");
  // The page's save helpers click a link of their own, added straight to the body.
  if (!link || link.parentElement !== document.body) return;
  event.preventDefault();
  recorded.push({
    href: link.href,
    fileName: link.hasAttribute("download") ? link.download : null,
    blob: blobs.get(link.href) ?? null,
  });
}

/** Starts a test with no downloads, and object URLs that name the blobs they stand for. */
export function installDownloads(): void {
  recorded.length = 0;
  blobs.clear();
  let next = 0;
  URL.createObjectURL = (blob: Blob | MediaSource) => {
    const href = `blob:http://localhost/download-${(next += 1)}`;
    blobs.set(href, blob as Blob);
    return href;
  };
  URL.revokeObjectURL = (href: string) => void blobs.delete(href);
  document.removeEventListener("click", record, true);
  document.addEventListener("click", record, true);
}

/** The text of a downloaded file (jsdom's `Blob` has no `text()`). */
export function downloadedText(download: Download | undefined): Promise<string> {
  const blob = download?.blob;
  if (!blob) return Promise.reject(new Error("No file was downloaded"));
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read"));
    reader.readAsText(blob);
  });
}
