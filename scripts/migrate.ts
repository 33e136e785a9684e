import { getDatabase } from "../lib/db";

const database = await getDatabase();
console.log(`migrations applied (${database.kind}, vector: ${database.vector})`);
await database.close();
