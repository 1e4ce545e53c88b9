package tests

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/stats"
)

func TestEveryWindowIsAveraged(t *testing.T) {
	got := stats.MovingAverage([]float64{1, 2, 3, 4, 5}, 2)
	if diff := cmp.Diff([]float64{1.5, 2.5, 3.5, 4.5}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestOneWindowCoversTheSeries(t *testing.T) {
	got := stats.MovingAverage([]float64{2, 4, 9}, 3)
	if diff := cmp.Diff([]float64{5}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestWindowOfOneIsTheSeries(t *testing.T) {
	got := stats.MovingAverage([]float64{7, 8}, 1)
	if diff := cmp.Diff([]float64{7, 8}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestImpossibleWindowsGiveNil(t *testing.T) {
	for _, size := range []int{0, -1, 4} {
		if got := stats.MovingAverage([]float64{1, 2, 3}, size); got != nil {
			t.Errorf("size %d: got %v, want nil", size, got)
		}
	}
}
