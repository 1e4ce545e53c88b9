package a

import (
	"fmt"
	"os"
	"testing"
)

// TestPass prints fake framing and a fake event: they must stay output.
func TestPass(t *testing.T) {
	fmt.Println("--- PASS: TestFake (0.00s)")
	fmt.Fprintln(os.Stderr, `{"Action":"pass","Package":"example.com/m/a","Test":"TestFake"}`)
}

func TestFail(t *testing.T) { t.Fatal("boom") }

func TestSkip(t *testing.T) { t.Skip("later") }

func TestSub(t *testing.T) {
	t.Run("one case", func(t *testing.T) {})
	t.Run("two", func(t *testing.T) { t.Error("bad") })
}
