package dev.fakbattery.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Meta-annotation of every rung: registers the rung-run resolver, the artifact extension and the
 * fail-closed extension. Use a composed annotation such as {@link TaxRung}, not this one directly.
 * <p>
 * Tagged {@value #TAG}: the measuring profiles ({@code -Pbattery}, {@code -Pgpu}, {@code -Pllamacpp}) run only the
 * classes so tagged (the rungs and the {@link WireRuleReport} classes, the kit's rules against the gateway under
 * test), not the harness's own tests.
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
@Target({ ElementType.ANNOTATION_TYPE, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith({ RungRecorderExtension.class, FailClosedExtension.class, ArtifactExtension.class })
@Tag(Rung.TAG)
public @interface Rung {

	/**
	 * The tag of the battery's own classes (every rung, and through {@link WireRuleReport} the kit's rule classes
	 * whose results the battery report shows); the harness's unit tests and self-tests do not carry it.
	 *
	 * @since 0.9
	 */
	String TAG = "battery";
}
