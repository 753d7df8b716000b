package dev.fakbattery.core.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Progress")
class ProgressTests {

	/** A clock the test sets, in nanoseconds. */
	private final AtomicLong clock = new AtomicLong();

	private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

	private PrintStream out() {
		return new PrintStream(bytes, true, StandardCharsets.UTF_8);
	}

	private List<String> lines() {
		return bytes.toString(StandardCharsets.UTF_8).lines().toList();
	}

	@Test
	@DisplayName("prints '[label] step done/total ETA' at most once per interval, and a final line")
	void throttled() {
		Progress progress = Progress.start("tax", "sweep c=8 raw", 10, Duration.ofSeconds(5),
				out(), clock::get);
		for (int i = 0; i < 4; i++) {
			clock.addAndGet(1_000_000_000L);
			progress.advance();
		}
		clock.addAndGet(1_000_000_000L);
		progress.advance();
		clock.addAndGet(1_000_000_000L);
		progress.advance();
		progress.finish();
		assertThat(lines())
				.containsExactly("[tax] sweep c=8 raw 5/10 ETA 5s", "[tax] sweep c=8 raw 6/10 done in 6s");
		assertThat(progress.line(10, 12_000_000_000L)).isEqualTo("[tax] sweep c=8 raw 10/10 done in 12s");
		assertThat(progress.line(0, 0)).endsWith("0/10 ETA ?");
	}

	@Test
	@DisplayName("a progress in seconds reads them off the clock at each tick, so its ETA counts down to the cap")
	void seconds() {
		Progress progress = Progress.seconds("tax", "warm-up c=8 seconds", 120, Duration.ofSeconds(5),
				out(), clock::get);
		for (int second = 1; second <= 10; second++) {
			clock.set(second * 1_000_000_000L);
			progress.tick();
		}
		clock.set(28_000_000_000L);
		progress.finish();
		assertThat(lines()).containsExactly(
				"[tax] warm-up c=8 seconds 5/120 ETA 115s", "[tax] warm-up c=8 seconds 10/120 ETA 110s",
				"[tax] warm-up c=8 seconds 10/120 done in 28s");
	}

	@Test
	@DisplayName("ticks print the caller's detail every interval while no step completes, and finish reads done even short of the total")
	void ticksWithDetail() {
		Progress progress = Progress.start("tax", "sweep c=128 raw+gateway", 24, Duration.ofSeconds(10),
				out(), clock::get);
		progress.advance();
		progress.detail("batches 1/12 per arm, ratio ?");
		for (int second = 1; second <= 25; second++) {
			clock.set(second * 1_000_000_000L);
			progress.tick();
		}
		progress.set(8);
		progress.detail("batches 4/12 per arm, ratio 0.9977 [0.9910, 1.0002]");
		clock.set(30_000_000_000L);
		progress.tick();
		progress.finish();
		assertThat(lines()).containsExactly(
				"[tax] sweep c=128 raw+gateway 1/24 ETA 230s, batches 1/12 per arm, ratio ?",
				"[tax] sweep c=128 raw+gateway 1/24 ETA 460s, batches 1/12 per arm, ratio ?",
				"[tax] sweep c=128 raw+gateway 8/24 ETA 60s, batches 4/12 per arm, ratio 0.9977 [0.9910, 1.0002]",
				"[tax] sweep c=128 raw+gateway 8/24 done in 30s, batches 4/12 per arm, ratio 0.9977 [0.9910, 1.0002]");
	}

	@Test
	@DisplayName("silent progress counts without printing")
	void silent() {
		Progress progress = Progress.silent();
		long before = progress.done();
		progress.advance();
		assertThat(progress.done()).isEqualTo(before + 1);
	}
}
