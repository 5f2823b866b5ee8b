import { useEffect, useState } from "react";

/** Hooks at the top, effects naming what they read, failures handled: nothing to report. */
export function Title({ resourceId, load }: { resourceId: string; load: (id: string) => Promise<string> }) {
  const [title, setTitle] = useState("");
  useEffect(() => {
    let current = true;
    load(resourceId).then(
      (loaded) => current && setTitle(loaded),
      () => current && setTitle(resourceId),
    );
    return () => {
      current = false;
    };
  }, [resourceId, load]);
  return <h1>{title}</h1>;
}
