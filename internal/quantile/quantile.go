// Package quantile reads quantiles off bucketed counts: the one rank walk
// of the prediction's error statistics and the loop's latency measure,
// whichever way each lays its buckets out.
package quantile

import "math"

// Bucket is the index of the bucket holding the q-quantile (0 < q ≤ 1) of
// total values counted in counts: the first whose running count reaches
// ⌈q·total⌉ (at least 1). It is -1 with no values, and the last bucket when
// the counts add up to less than the rank.
func Bucket(counts []uint64, total uint64, q float64) int {
	if total == 0 {
		return -1
	}
	rank := max(uint64(math.Ceil(q*float64(total))), 1)
	var run uint64
	for i, c := range counts {
		run += c
		if run >= rank {
			return i
		}
	}
	return len(counts) - 1
}
