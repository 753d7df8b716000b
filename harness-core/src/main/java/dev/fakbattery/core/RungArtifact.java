package dev.fakbattery.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.apiguardian.api.API;

/**
 * Declares which required artifact a rung test writes. Every test of a rung class must declare one
 * (on the method or the class); a missing declaration is a configuration error.
 *
 * @since 0.1
 */
@API(status = API.Status.STABLE, since = "0.6")
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface RungArtifact {

	ArtifactId value();
}
