# Models and data the build exports with one of the repository's scripts
# (Debian's python3, with torch and onnx; nothing downloaded): runs
# `SCRIPT OUT_DIR`, which writes the files that follow `comment`.
function(geflow_python_export script out_dir comment)
  add_custom_command(OUTPUT ${ARGN}
    COMMAND /usr/bin/python3 ${script} ${out_dir}
    DEPENDS ${script}
    COMMENT "${comment}")
endfunction()
