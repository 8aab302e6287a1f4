-- Issue 33 (decision 042): four team roles. Every admin becomes an Owner and every employee Crew, so
-- nobody can do less or more than before; the spec's role (admin or employee) now follows from the
-- team role and cannot disagree with it. Tokens keep working: token_version is not touched.
-- Only ALTERs, no UPDATE: an UPDATE of users leaves trigger events pending (the foreign keys that
-- point at it), and PostgreSQL refuses to ALTER the table after one in the same transaction. The new
-- column is first computed from the old one, then kept as plain values.
ALTER TABLE "users" ADD COLUMN "team_role" text GENERATED ALWAYS AS (CASE WHEN "role" = 'admin' THEN 'owner' ELSE 'crew' END) STORED;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "team_role" DROP EXPRESSION;--> statement-breakpoint
ALTER TABLE "users" ALTER COLUMN "team_role" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_team_role_check" CHECK ("users"."team_role" in ('owner', 'office', 'crew_lead', 'crew'));--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_role_check";--> statement-breakpoint
DROP INDEX IF EXISTS "users_role_idx";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "role";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "role" text GENERATED ALWAYS AS (case when team_role in ('owner', 'office') then 'admin' else 'employee' end) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role","created_at");
