-- The owner's kept figures (0027) now also stand for two screens' lists, so more changes move their version.
-- Reports' repeating work (the plans running, what they bill ahead): a service plan started, changed or
-- ended moves it, like a job or an invoice does. It was computed on every opening of Reports, a read of
-- the plan's job per plan.
CREATE CONSTRAINT TRIGGER figures_version_visit_plans AFTER INSERT OR UPDATE OR DELETE ON visit_plans DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
--> statement-breakpoint
-- Needs you today's requests waiting for a quote (and its estimate visits' names): a request's status,
-- name, city or number changed, or the request deleted. A visitor's new request is Pending and does
-- not move it (its commit takes no version's lock, decision 028); one added already accepted does.
CREATE CONSTRAINT TRIGGER figures_version_requests AFTER UPDATE OF status, contact_name, city, quote_number OR DELETE ON quote_requests DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER figures_version_requests_added AFTER INSERT ON quote_requests DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (NEW.status <> 'Pending') EXECUTE FUNCTION figures_version_bump();
