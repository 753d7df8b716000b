package dev.fakbattery.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Isolated;

// runs alone (junit-platform.properties runs classes concurrently): its watchdog times 200 ms
@DisplayName("upstream watchdog")
@Timeout(30)
@Isolated
class UpstreamWatchdogTests {

	@Test
	@DisplayName("regression (soak): a closed body leaves no check behind, so memory does not grow with the request rate")
	void closedBodiesLeaveNoChecks() throws IOException {
		try (UpstreamWatchdog watchdog = new UpstreamWatchdog(Duration.ofMinutes(5))) {
			for (int i = 0; i < 10_000; i++) {
				try (InputStream body = watchdog.watch(new ByteArrayInputStream(new byte[]{ 'x' }))) {
					body.readAllBytes();
				}
			}
			assertThat(watchdog.pendingChecks()).isZero();
			InputStream open = watchdog.watch(InputStream.nullInputStream());
			assertThat(watchdog.pendingChecks()).isEqualTo(1);
			open.close();
			assertThat(watchdog.pendingChecks()).isZero();
		}
	}

	@Test
	@DisplayName("a read that waits the whole timeout fails with the stall, naming the timeout")
	void stalledRead() throws IOException {
		try (UpstreamWatchdog watchdog = new UpstreamWatchdog(Duration.ofMillis(200))) {
			InputStream body = watchdog.watch(new Silent());

			assertThatThrownBy(body::read).isInstanceOf(UpstreamLimitException.class)
					.hasMessage("upstream sent nothing for 200 ms (the gateway's upstream timeout)");
		}
	}

	@Test
	@DisplayName("time spent outside read (a gateway held back by a slow client) is no stall")
	void slowConsumerIsNoStall() throws Exception {
		try (UpstreamWatchdog watchdog = new UpstreamWatchdog(Duration.ofMillis(200))) {
			InputStream body = watchdog.watch(new ByteArrayInputStream(new byte[]{ 'a', 'b' }));
			assertThat(body.read()).isEqualTo('a');
			Thread.sleep(500);
			assertThat(body.read()).isEqualTo('b');
		}
	}

	@Test
	@DisplayName("a whole answer past its size limit fails with the limit")
	void sizeLimit() {
		try (UpstreamWatchdog watchdog = new UpstreamWatchdog(Duration.ofSeconds(5))) {
			InputStream body = watchdog.watch(new ByteArrayInputStream(new byte[100]), 10, "upstream response is larger than 10 bytes");

			assertThatThrownBy(body::readAllBytes).isInstanceOf(UpstreamLimitException.class)
					.hasMessage("upstream response is larger than 10 bytes");
		}
	}

	/** A body that sends nothing until closed, then fails its read, as the JDK client's body does. */
	private static final class Silent extends InputStream {

		private final CountDownLatch closed = new CountDownLatch(1);

		@Override
		public int read() throws IOException {
			try {
				closed.await();
			}
			catch (InterruptedException e) {
				Thread.currentThread().interrupt();
			}
			throw new IOException("closed");
		}

		@Override
		public void close() {
			closed.countDown();
		}
	}
}
