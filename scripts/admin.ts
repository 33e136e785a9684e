// `npm run admin -- grant|revoke <email>`: the operator's way to make (or unmake) an admin, on DATABASE_URL or PGLITE_DIR.
import { changeAdmin, describeAdminChange, parseAdminArgs } from "../lib/auth/admins";
import { getDatabase } from "../lib/db";

let args: ReturnType<typeof parseAdminArgs>;
try {
  args = parseAdminArgs(process.argv.slice(2));
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}
const database = await getDatabase();
try {
  const result = await changeAdmin(database.unbound.db, args.change, args.email);
  console.log(describeAdminChange(args.change, result));
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await database.close();
}
