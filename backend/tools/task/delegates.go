package task

// Delegates reports that a task's subagent may run tools that change
// files, so checkpoints bracket its calls.
func (*Tool) Delegates() bool { return true }
