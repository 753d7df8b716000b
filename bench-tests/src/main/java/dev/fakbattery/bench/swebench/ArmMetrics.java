package dev.fakbattery.bench.swebench;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

import dev.fakbattery.core.Measurement;

/**
 * The contract's required metrics for one arm, each measured or pending; names are
 * {@code <arm>.<metric>}, for example {@code fak-gateway.latency.agent_sec}.
 *
 * @param arm the arm
 * @param metrics one measurement per {@link CompareMetrics#METRICS_REQUIRED} entry, in that order
 * @since 0.1
 */
public record ArmMetrics(String arm, List<Measurement> metrics) {

	public ArmMetrics {
		Objects.requireNonNull(arm, "arm");
		metrics = List.copyOf(metrics);
	}

	/** The measurement of {@code metric} (without the arm prefix). */
	public Optional<Measurement> metric(String metric) {
		return metrics.stream().filter(m -> m.name().equals(arm + "." + metric)).findFirst();
	}

	public List<Measurement.Pending> pending() {
		return metrics.stream().filter(Measurement.Pending.class::isInstance).map(Measurement.Pending.class::cast).toList();
	}
}
