import { handlers } from "@/app/(auth)/auth";

export const { GET, POST } = handlers;
