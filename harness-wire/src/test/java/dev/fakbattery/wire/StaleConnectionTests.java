package dev.fakbattery.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("StaleConnection: which failures went unanswered")
class StaleConnectionTests {

	@Test
	@DisplayName("the JDK's no-bytes failure, at any depth of causes, went unanswered")
	void noBytes() {
		IOException inner = new IOException("HTTP/1.1 header parser received no bytes", new EOFException("EOF reached while reading"));
		assertThat(StaleConnection.unanswered(new IOException("HTTP/1.1 header parser received no bytes", inner))).isTrue();
		assertThat(StaleConnection.unanswered(new IOException("wrapped", inner))).isTrue();
	}

	@Test
	@DisplayName("a refused connection, a reset, a bare EOF or a timeout are the server's answer")
	void others() {
		assertThat(StaleConnection.unanswered(new ConnectException("Connection refused"))).isFalse();
		assertThat(StaleConnection.unanswered(new IOException("Connection reset"))).isFalse();
		assertThat(StaleConnection.unanswered(new EOFException())).isFalse();
		assertThat(StaleConnection.unanswered(new java.net.http.HttpTimeoutException("request timed out"))).isFalse();
	}
}
