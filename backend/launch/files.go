package launch

import "context"

// FilesLimit is the most paths Files lists; a bigger workspace is cut
// off, the shallowest paths kept.
const FilesLimit = 100_000

// Files lists the session's workspace for `@` completion: paths relative
// to it, folders ending in "/", shallowest first, through the same walker
// (and so the same ignore rules) as the glob and grep tools. It reads the
// disk; front doors call it off their event loop.
func (s *Session) Files(ctx context.Context) ([]string, error) {
	return s.Workspace.List(ctx, s.Cwd, FilesLimit)
}
