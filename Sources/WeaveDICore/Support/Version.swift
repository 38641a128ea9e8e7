/// The version of WeaveDI this build is.
///
/// The one place the version is written: `Scripts/check-version.sh` (run by CI) checks that it is
/// the newest released section of `CHANGELOG.md`. WeaveDI logs it as the first line after
/// `UnifiedDI.setLogLevel(.all)`.
///
/// Named like ``DIError`` and ``DILogLevel`` (not `WeaveDIVersion`: DocC's symbol graphs leave out
/// a re-exported type whose name starts with the module's, `WeaveDI`).
public enum DIVersion {
    /// The version, `major.minor.patch` (semantic versioning; `0.x` while the public API still
    /// changes between minor versions).
    public static let current = "0.1.0"
}
