-- Reports' repeating work (the plans running, what they bill ahead) is kept with the owner's other
-- figures (0027), so a service plan started, changed or ended moves the figures' version like a job or
-- an invoice does. It was computed on every opening of Reports, a read of the plan's job per plan.
CREATE CONSTRAINT TRIGGER figures_version_visit_plans AFTER INSERT OR UPDATE OR DELETE ON visit_plans DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION figures_version_bump();
