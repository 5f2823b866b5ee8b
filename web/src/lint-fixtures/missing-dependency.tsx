import { useEffect, useState } from "react";

/** An effect that reads `resourceId` without naming it: another resource keeps the first one's title. */
export function Title({ resourceId }: { resourceId: string }) {
  const [title, setTitle] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => setTitle(`Resource ${resourceId}`), 0);
    return () => clearTimeout(timer);
  }, []);
  return <h1>{title}</h1>;
}
