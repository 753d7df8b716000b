package dev.fakbattery.bench.soak;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.node.ObjectNode;

import dev.fakbattery.core.ConfigKeys;
import dev.fakbattery.core.HarnessConfig;
import dev.fakbattery.core.load.Progress;
import dev.fakbattery.core.target.TargetIdentity;
import dev.fakbattery.core.target.TargetProbe;
import dev.fakbattery.wire.Json;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The soak ({@code ./mvnw verify -Psoak}): {@code soak.streams} concurrent streams (256) for {@code soak.duration.sec}
 * (600) through the reference gateway in front of the engine double, each in its own JVM; every {@code soak.sample.sec}
 * (10) the heap after a full GC, the live threads and the open file descriptors of the gateway, the double and the
 * load client are sampled. Writes {@value SoakReport#FILE} and {@value SoakReport#PLOT} to {@code experiments.dir}, and
 * fails when any series grows without bound ({@link Growth}), when any process holds more at rest 70 s after the load
 * than at rest before it (beyond the same limit), when any request is lost (started, never completed nor failed), or
 * when more than 1 % failed. Bounded: it stops by itself after the duration plus one request timeout.
 */
@Tag("soak")
@DisplayName("soak: bounded resources, every request accounted")
class SoakRun {

	private static final double RELATIVE = 0.25;

	/**
	 * The pause after the load before the at-rest sample: longer than the 60 s an idle pooled thread lives (cached
	 * thread pools, the JDK client's default executor) and the 30 s an idle keep-alive connection does.
	 */
	private static final java.time.Duration REST_AFTER = java.time.Duration.ofSeconds(70);

	/** Absolute floors of the growth limit: heap MiB, threads, file descriptors. */
	private static final double[] ABSOLUTE = { 32, 32, 64 };

	@Test
	@DisplayName("gateway and engine double under a long stream load")
	void soak() throws Exception {
		HarnessConfig config = HarnessConfig.fromSystemProperties();
		int streams = config.get(ConfigKeys.SOAK_STREAMS);
		int duration = config.get(ConfigKeys.SOAK_DURATION_SEC);
		int every = config.get(ConfigKeys.SOAK_SAMPLE_SEC);
		Path dir = config.experimentsDir();
		Files.createDirectories(dir.resolve("logs"));
		ObjectNode settings = Json.MAPPER.createObjectNode()
				.put("streams", streams)
				.put("duration_s", duration)
				.put("sample_every_s", every)
				.put("request_timeout_s", SoakLoad.REQUEST_TIMEOUT.toSeconds())
				.put("growth_rule",
						"medians of the thirds after " + Growth.WARMUP_FRACTION_PERCENT + " % warm-up rise third after third by more"
								+ " than max(" + RELATIVE + " x first, floor); floors heap 32 MiB, threads 32, fds 64")
				.put("load_average_at_start", java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
		try (ChildJvm engine = ChildJvm.start("engine double", "-Xmx1g", "dev.fakbattery.engine.Main",
				List.of("--dialect", "vllm", "--port", "0", "--timing", "default", "--completion-tokens", "32"),
				dir.resolve("logs/soak-engine-double.log"));
				ChildJvm gateway = ChildJvm.start("reference gateway", "-Xmx1g", "dev.fakbattery.gateway.Main",
						List.of("--upstream", engine.baseUrl(), "--port", "0"), dir.resolve("logs/soak-reference-gateway.log"))) {
			TargetIdentity target = TargetProbe.identify(URI.create(engine.baseUrl()), "soak engine double", Optional.empty());
			String model = engine.announcement().replaceAll(".* serving (\\S+) at .*", "$1");
			settings.put("engine", engine.announcement()).put("gateway", gateway.announcement());
			List<SoakSeries> series = List.of(new SoakSeries(gateway.name(), gateway.pid()), new SoakSeries(engine.name(), engine.pid()),
					new SoakSeries("load client", ProcessHandle.current().pid()));
			SoakLoad load = new SoakLoad(gateway.baseUrl(), model);
			series.forEach(s -> s.rest(true));
			long start = System.nanoTime();
			Progress progress = Progress.seconds("soak", streams + " streams, seconds", duration);
			ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
			sampler.scheduleAtFixedRate(() -> {
				double at = (System.nanoTime() - start) / 1e9;
				series.forEach(s -> s.sample(at));
				progress.detail(
						load.started() + " requests started, " + load.completed() + " completed, " + load.failedCount() + " failed");
			}, 0, every, TimeUnit.SECONDS);
			load.run(streams, start + TimeUnit.SECONDS.toNanos(duration));
			sampler.shutdown();
			sampler.awaitTermination(2L * every + 60, TimeUnit.SECONDS);
			progress.finish();
			series.forEach(s -> s.sample((System.nanoTime() - start) / 1e9));
			Thread.sleep(REST_AFTER.toMillis());
			series.forEach(s -> s.rest(false));
			List<String> findings = findings(series, load, List.of(engine, gateway));
			ObjectNode doc = SoakReport.write(dir, config, target, settings, series, load, findings);
			System.out.println("[soak] " + doc.path("verdict").asText() + ": " + doc.path("requests") + " " + findings);
			assertThat(findings).as("soak findings (artifact %s)", dir.resolve(SoakReport.FILE)).isEmpty();
		}
	}

	private static List<String> findings(List<SoakSeries> series, SoakLoad load, List<ChildJvm> children) {
		List<String> findings = new ArrayList<>();
		for (SoakSeries s : series) {
			for (int m = 0; m < SoakSeries.METRICS.length; m++) {
				Growth.unbounded(s.name() + " " + SoakSeries.METRICS[m], s.metric(m), RELATIVE, ABSOLUTE[m]).ifPresent(findings::add);
				double before = s.restBefore()[m];
				double after = s.restAfter()[m];
				if (after - before > Math.max(RELATIVE * before, ABSOLUTE[m])) {
					findings.add(String.format(java.util.Locale.ROOT, "%s %s at rest: %.1f after the soak, %.1f before (limit %.1f more)",
							s.name(), SoakSeries.METRICS[m], after, before, Math.max(RELATIVE * before, ABSOLUTE[m])));
				}
			}
		}
		if (load.lost() != 0) {
			findings.add(load.lost() + " request(s) lost: started " + load.started() + ", completed " + load.completed() + ", failed "
					+ load.failedCount());
		}
		if (load.failedCount() * 100 > load.started()) {
			findings.add(load.failedCount() + " of " + load.started() + " requests failed (over 1 %): " + load.failures());
		}
		if (load.completed() == 0) {
			findings.add("no request completed: the soak measured nothing");
		}
		children.stream().filter(c -> !c.alive()).forEach(c -> findings.add(c.name() + " died during the soak"));
		return findings;
	}
}
