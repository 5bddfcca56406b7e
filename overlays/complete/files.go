package complete

import (
	"strings"
)

// MaxFileResults is the most files and folders a query lists.
const MaxFileResults = 20

// Scores of the file ranking tiers; a folder gets FolderBonus on top, so
// folders come first within a tier.
const (
	ScoreExact       = 1000 // the basename is the query
	ScorePrefix      = 900  // the basename starts with the query
	ScoreBaseSubstr  = 700  // the basename contains the query
	ScorePathSubstr  = 500  // the path contains the query
	ScoreSubsequence = 300  // the query's characters appear in order; plus 100 minus the gap
	FolderBonus      = 25
)

// Files ranks workspace paths against a query. It precomputes what every
// keystroke needs (lowercase paths, basename offsets, a character mask per
// path) so a query scans the index without allocating per path.
type Files struct {
	paths  []string // as indexed: folders end in "/"
	lower  []string // lowercase, without the folder slash
	base   []int32  // offset of the basename in lower
	mask   []uint64 // characters present, see charBit
	dir    []bool
	hidden []bool // a segment starts with "."
}

// NewFiles prepares paths (as Index returns them) for ranking.
func NewFiles(paths []string) *Files {
	n := len(paths)
	f := &Files{paths: paths, lower: make([]string, n), base: make([]int32, n),
		mask: make([]uint64, n), dir: make([]bool, n), hidden: make([]bool, n)}
	for i, p := range paths {
		f.dir[i] = strings.HasSuffix(p, "/")
		l := strings.ToLower(strings.TrimSuffix(p, "/"))
		f.lower[i] = l
		f.base[i] = int32(strings.LastIndexByte(l, '/') + 1)
		f.mask[i] = charMask(l)
		f.hidden[i] = strings.HasPrefix(l, ".") || strings.Contains(l, "/.")
	}
	return f
}

// Len is the number of indexed paths.
func (f *Files) Len() int { return len(f.paths) }

// FileMatch is one ranked path.
type FileMatch struct {
	Path  string // as indexed; folders end in "/"
	Dir   bool
	Score int
}

// Rank returns up to limit paths matching query, best first: by score,
// then shorter path, then name. Paths with a hidden (dot) segment match
// only when the query contains a dot.
func (f *Files) Rank(query string, limit int) []FileMatch {
	q := strings.ToLower(query)
	qmask := charMask(q)
	hidden := strings.Contains(q, ".")
	top := make([]ranked, 0, limit+1)
	for i := range f.lower {
		if f.hidden[i] && !hidden || qmask&^f.mask[i] != 0 {
			continue
		}
		s := f.score(i, q)
		if s < 0 {
			continue
		}
		top = f.keep(top, ranked{i: int32(i), score: int32(s)}, limit)
	}
	out := make([]FileMatch, len(top))
	for j, r := range top {
		out[j] = FileMatch{Path: f.paths[r.i], Dir: f.dir[r.i], Score: int(r.score)}
	}
	return out
}

type ranked struct{ i, score int32 }

// keep inserts r into top (sorted best first) when it is among the limit
// best.
func (f *Files) keep(top []ranked, r ranked, limit int) []ranked {
	if limit <= 0 {
		return top
	}
	if len(top) == limit && !f.better(r, top[len(top)-1]) {
		return top
	}
	j := len(top)
	for j > 0 && f.better(r, top[j-1]) {
		j--
	}
	top = append(top, ranked{})
	copy(top[j+1:], top[j:])
	top[j] = r
	if len(top) > limit {
		top = top[:limit]
	}
	return top
}

func (f *Files) better(a, b ranked) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	la, lb := len(f.lower[a.i]), len(f.lower[b.i])
	if la != lb {
		return la < lb
	}
	return f.lower[a.i] < f.lower[b.i]
}

// score is the tier score of path i for query q (already lowercase), or
// -1 when it does not match.
func (f *Files) score(i int, q string) int {
	l := f.lower[i]
	base := l[f.base[i]:]
	bonus := 0
	if f.dir[i] {
		bonus = FolderBonus
	}
	switch {
	case q == "":
		return bonus
	case base == q:
		return ScoreExact + bonus
	case strings.HasPrefix(base, q):
		return ScorePrefix + bonus
	case strings.Contains(base, q):
		return ScoreBaseSubstr + bonus
	case strings.Contains(l, q):
		return ScorePathSubstr + bonus
	}
	gap := subsequenceGap(l, q)
	if gap < 0 {
		return -1
	}
	return ScoreSubsequence + 100 - min(gap, 100) + bonus
}

// subsequenceGap is how many characters of s lie between the first and
// last of q's characters matched in order (leftmost), or -1 when q is not
// a subsequence of s.
func subsequenceGap(s, q string) int {
	start := strings.IndexByte(s, q[0])
	if start < 0 {
		return -1
	}
	i := start + 1
	for j := 1; j < len(q); j++ {
		k := strings.IndexByte(s[i:], q[j])
		if k < 0 {
			return -1
		}
		i += k + 1
	}
	return i - start - len(q)
}

// charMask has one bit per letter and digit, and one for any other byte,
// so a query needing a character a path lacks is rejected at once.
func charMask(s string) uint64 {
	var m uint64
	for i := 0; i < len(s); i++ {
		m |= charBit(s[i])
	}
	return m
}

func charBit(c byte) uint64 {
	switch {
	case c >= 'a' && c <= 'z':
		return 1 << (c - 'a')
	case c >= '0' && c <= '9':
		return 1 << (26 + c - '0')
	case c == '.':
		return 1 << 36
	case c == '/':
		return 1 << 37
	case c == '_' || c == '-':
		return 1 << 38
	}
	return 1 << 40
}
