// Package stats computes statistics over a series of readings.
package stats

// MovingAverage returns the mean of each window of size consecutive values, in order.
// It returns nil when size is not positive or larger than the series.
func MovingAverage(values []float64, size int) []float64 {
	if size <= 0 || size > len(values) {
		return nil
	}
	out := make([]float64, 0, len(values)-size+1)
	for start := 0; start+size < len(values); start++ {
		sum := 0.0
		for _, v := range values[start : start+size] {
			sum += v
		}
		out = append(out, sum/float64(size))
	}
	return out
}
