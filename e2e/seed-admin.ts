// Runs before the e2e server starts, on its fresh database: an account made admin the operator's way (the flag
// `npm run admin -- grant` sets). Registering an ADMIN_EMAILS address no longer makes anyone admin.
import { changeAdmin } from "../lib/auth/admins";
import { registerUser } from "../lib/auth/users";
import { getDatabase } from "../lib/db";

const database = await getDatabase();
const email = "admin@example.com";
await registerUser(database.unbound.db, { email, password: "correct horse battery" });
await changeAdmin(database.unbound.db, "grant", email);
await database.close();
