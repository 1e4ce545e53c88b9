package tests

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/stats"
)

func TestWindowOfThreeOverSixReadingsA(t *testing.T) {
	got := stats.MovingAverage([]float64{2, 4, 6, 8, 10, 12}, 3)
	if diff := cmp.Diff([]float64{4, 6, 8, 10, 12}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestWindowOfThreeOverSixReadingsB(t *testing.T) {
	got := stats.MovingAverage([]float64{2, 4, 6, 8, 10, 12}, 3)
	if diff := cmp.Diff([]float64{3, 6, 8, 10}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestWindowAsLongAsTheSeriesIsItsMeanA(t *testing.T) {
	got := stats.MovingAverage([]float64{1, 2, 3, 4}, 4)
	if diff := cmp.Diff([]float64{10}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestWindowAsLongAsTheSeriesIsItsMeanB(t *testing.T) {
	got := stats.MovingAverage([]float64{1, 2, 3, 4}, 4)
	if diff := cmp.Diff([]float64{2}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestLastWindowOfNegativeReadingsA(t *testing.T) {
	got := stats.MovingAverage([]float64{-1, -3, -5}, 2)
	if diff := cmp.Diff([]float64{-2, -4, -5}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestLastWindowOfNegativeReadingsB(t *testing.T) {
	got := stats.MovingAverage([]float64{-1, -3, -5}, 2)
	if diff := cmp.Diff([]float64{2, 4}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}
