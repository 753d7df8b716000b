package dev.fakbattery.api;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;
import org.junit.jupiter.api.Tag;

/**
 * Rung 1: node preflight (GPU, engine install, served model). Tagged {@code preflight}; registers the rung extensions (see {@link Rung}).
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@Tag("preflight")
@Rung
public @interface PreflightRung {
}
