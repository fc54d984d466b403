
TEST_CASE("telemetry: a run killed at its time limit stops its sampler, whose file ends with end") {
  Sandbox box;
  run(box, "slow", "\"sleep 30\"", std::string("telemetry: {interval_ms: 200}\nresources: {time: \"0:02\"}\n"), 1);
  auto db = box.db();
  CHECK(scalar(db, "SELECT count(*) FROM runs WHERE failure_class = 'timeout'") == 1);
  const std::string dir = run_dir(db, "slow");
  const auto files = telemetry_files(dir);
  REQUIRE(files.size() == 1);
  CHECK_THAT(read_file(dir + "/" + files[0]), Catch::Contains("\nend "));  // stopped by the script's EXIT trap
  // The sampler runs in a session of its own, out of reach of the process-group kill: none is left.
  for (const auto& p : std::filesystem::directory_iterator("/proc")) {
    const std::string cmdline = read_file(p.path().string() + "/cmdline");
    if (cmdline.rfind("/sweep-telemetry") != std::string::npos) CHECK(cmdline.find(dir) == std::string::npos);
  }
}
