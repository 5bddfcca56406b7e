package agent_test

import (
	"strings"
	"testing"
)

// SteerTurn joins a turn that can take steering, as Steer does, and
// leaves an idle agent idle: no turn starts, nothing is queued.
func TestSteerTurnJoinsOnlyARunningTurn(t *testing.T) {
	f, started, release := blockingFixture(t, "Understood.")
	if f.agent.SteerTurn("while idle") {
		t.Error("SteerTurn joined a turn while the agent was idle")
	}
	if quiet, _ := f.agent.Quiet(); !quiet {
		t.Error("SteerTurn queued a message while the agent was idle")
	}
	f.agent.Send("start")
	<-started
	if !f.agent.SteerTurn("also check the docs") {
		t.Error("SteerTurn did not join the running turn")
	}
	close(release)
	f.waitIdle()
	reqs := f.srv.Requests()
	if len(reqs) != 2 || countType(f.log.Events(), "turn/start") != 1 || countType(f.log.Events(), "steering/message") != 1 {
		t.Fatalf("want one turn of 2 requests with one steering message, got %d requests, %d turns", len(reqs), countType(f.log.Events(), "turn/start"))
	}
	for _, m := range reqs[0].Messages {
		if strings.Contains(m.Content, "while idle") {
			t.Error("the message SteerTurn refused reached the model")
		}
	}
}
