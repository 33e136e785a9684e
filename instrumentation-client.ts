import { z } from "zod";

// Zod probes whether it may compile parsers with `new Function` on its first parse. Under the pages' CSP (no
// 'unsafe-eval') that probe is refused and reported as a violation, so tell zod up front not to try.
z.config({ jitless: true });
