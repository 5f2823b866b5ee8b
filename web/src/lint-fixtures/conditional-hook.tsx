import { useState } from "react";

/** A hook called only on some renders: React would pair the state with the wrong hook. */
export function Counter({ counted }: { counted: boolean }) {
  if (!counted) return null;
  const [count, setCount] = useState(0);
  return <button onClick={() => setCount(count + 1)}>{count}</button>;
}
