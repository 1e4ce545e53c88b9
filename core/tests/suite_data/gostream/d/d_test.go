package d

import (
	"os"
	"testing"
)

func TestZ(t *testing.T) { os.Exit(1) }

func TestW(t *testing.T) {}
