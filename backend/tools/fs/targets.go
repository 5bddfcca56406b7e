package fs

import (
	"encoding/json"

	"github.com/tack-agent/tack/backend/tools"
)

// Targets is the file a write call replaces.
func (*Write) Targets(call tools.Call) []string { return target(call) }

// Targets is the file an edit call changes.
func (*Edit) Targets(call tools.Call) []string { return target(call) }

// target is the resolved file_path of a call, nil when it has none; it
// does not validate the call, which Run does.
func target(call tools.Call) []string {
	var a struct {
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(call.Args, &a) != nil || a.FilePath == "" || call.Env == nil {
		return nil
	}
	return []string{resolve(call.Env.Cwd, a.FilePath)}
}

// ReadTargets is the file a read call reads.
func (*Read) ReadTargets(call tools.Call) []string { return target(call) }
