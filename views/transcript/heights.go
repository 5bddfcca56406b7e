package transcript

// heights is a Fenwick tree over block heights in rows: appending,
// changing one height and finding the block at a row all take O(log n), so
// a viewport over a long transcript costs no more than over a short one.
type heights struct {
	vals []int // height of each block
	tree []int // 1-based Fenwick sums
}

// push appends a block of height v.
func (h *heights) push(v int) {
	h.vals = append(h.vals, v)
	k := len(h.vals) // 1-based index of the new block
	sum := v
	// tree[k] covers (k-lowbit(k), k]: the new value plus the blocks before.
	for j := k - 1; j > k-lowbit(k); j -= lowbit(j) {
		sum += h.tree[j]
	}
	for len(h.tree) < k+1 {
		h.tree = append(h.tree, 0)
	}
	h.tree[k] = sum
}

// set changes the height of block i.
func (h *heights) set(i, v int) {
	d := v - h.vals[i]
	if d == 0 {
		return
	}
	h.vals[i] = v
	for k := i + 1; k < len(h.tree); k += lowbit(k) {
		h.tree[k] += d
	}
}

// total is the sum of all heights.
func (h *heights) total() int { return h.prefix(len(h.vals)) }

// prefix is the sum of the heights of blocks [0, n).
func (h *heights) prefix(n int) int {
	s := 0
	for k := n; k > 0; k -= lowbit(k) {
		s += h.tree[k]
	}
	return s
}

// find returns the block holding row r and r's offset inside it. Rows past
// the end map to the last block; zero-height blocks are skipped.
func (h *heights) find(r int) (block, offset int) {
	if r < 0 {
		r = 0
	}
	pos, rem := 0, r
	step := 1
	for step*2 <= len(h.vals) {
		step *= 2
	}
	for ; step > 0; step /= 2 {
		if next := pos + step; next <= len(h.vals) && h.tree[next] <= rem {
			pos = next
			rem -= h.tree[next]
		}
	}
	if pos >= len(h.vals) {
		return len(h.vals) - 1, h.vals[len(h.vals)-1]
	}
	return pos, rem
}

// reset replaces every height at once in O(n).
func (h *heights) reset(vals []int) {
	h.vals = vals
	h.tree = make([]int, len(vals)+1)
	for i, v := range vals {
		k := i + 1
		h.tree[k] += v
		if p := k + lowbit(k); p < len(h.tree) {
			h.tree[p] += h.tree[k]
		}
	}
}

func lowbit(k int) int { return k & -k }
