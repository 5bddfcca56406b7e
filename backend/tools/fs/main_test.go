package fs

import (
	"bytes"
	"fmt"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	if path := os.Getenv(writerEnv); path != "" {
		writeForever(path)
	}
	os.Exit(m.Run())
}

// writerEnv makes the test binary a writer that replaces a file, over and
// over, with one of two contents, until it is killed.
const writerEnv = "TACK_FS_TEST_WRITER"

// contents are the two versions the writer alternates: large, so that a
// kill lands during a write, and of different lengths, so that a torn
// file shows.
func contents() [2][]byte {
	return [2][]byte{bytes.Repeat([]byte("a"), 8<<20), bytes.Repeat([]byte("b"), 5<<20)}
}

func writeForever(path string) {
	c := contents()
	for i := 0; ; i++ {
		if err := writeAtomic(path, c[i%2]); err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("wrote")
	}
}
