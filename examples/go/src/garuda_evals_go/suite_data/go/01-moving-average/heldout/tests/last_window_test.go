package tests

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"example.com/shop/stats"
)

func TestWindowOfThreeOverSixReadings(t *testing.T) {
	got := stats.MovingAverage([]float64{2, 4, 6, 8, 10, 12}, 3)
	if diff := cmp.Diff([]float64{4, 6, 8, 10}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestWindowAsLongAsTheSeriesIsItsMean(t *testing.T) {
	got := stats.MovingAverage([]float64{1, 2, 3, 4}, 4)
	if diff := cmp.Diff([]float64{2.5}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}

func TestLastWindowOfNegativeReadings(t *testing.T) {
	got := stats.MovingAverage([]float64{-1, -3, -5}, 2)
	if diff := cmp.Diff([]float64{-2, -4}, got); diff != "" {
		t.Fatalf("MovingAverage (-want +got):\n%s", diff)
	}
}
