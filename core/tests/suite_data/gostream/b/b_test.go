package b

import "testing"

func TestX(t *testing.T) { undefined() }
