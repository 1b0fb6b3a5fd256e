# ConcordCorpus.cmake: register a corpus of concord cases as ctest tests, one test
# per case file and per target, so that a project can check its own actor runtime
# (a backend speaking runners/PROTOCOL.md) under ctest.
#
#   concord_add_corpus(NAME <prefix>
#                      CORPUS <dir-or-case-file>...
#                      TARGETS <target>...
#                      [BACKEND <name>=<command>]...
#                      [BACKENDS <json file>]...
#                      [CONCORD <path to the concord executable>]
#                      [LABELS <label>...]
#                      [TIMEOUT <seconds>])
#
# NAME     prefix of the test names: <prefix>/<target>/<case name>.
# CORPUS   folders (searched recursively for *.case.json, again at each build, so a
#          new case becomes a test at the next build) and single case files.
#          Relative paths are taken from the current source folder.
# TARGETS  the targets each case runs on: oracle, c, erlang, js, elixir (built in) or a backend
#          declared by BACKEND or BACKENDS.
# BACKEND  declares a backend as on concord's command line: NAME=COMMAND, where
#          COMMAND is split into words like a POSIX shell would, but no shell runs
#          it (quote paths with spaces in '...'; wrap pipes etc. in sh -c '...').
#          Relative program paths are resolved from the test's working folder (the
#          current binary folder): prefer absolute paths.
# BACKENDS a JSON file of backend declarations (concord's --backends FILE).
# CONCORD  the concord executable; default: the imported target concord::concord
#          (find_package(concord)), else the target concord (inside concord's own
#          build), else ${CONCORD_EXECUTABLE}.
# LABELS   labels added to every test; each test also has the labels `concord`
#          and its target's name, so `ctest -L <target>` runs one target.
# TIMEOUT  ctest's timeout of each test, in seconds.
#
# Each test runs `concord corpus <case> --target <target> [--backend ...]
# [--backends ...]`, which exits 0 when every run of the case gives its expected
# result, 1 on a difference, 2 when the case cannot be read, 3 when a backend gave
# no verdict (timeout, crash): each fails the test; 4 when the target's declaration
# does not claim the case's program ("supports", runners/PROTOCOL.md): the test is
# skipped (SKIP_RETURN_CODE).
include_guard(GLOBAL)

function(concord_add_corpus)
  set(one_value NAME CONCORD TIMEOUT)
  set(multi_value CORPUS TARGETS BACKEND BACKENDS LABELS)
  cmake_parse_arguments(PARSE_ARGV 0 arg "" "${one_value}" "${multi_value}")
  set(fn "concord_add_corpus")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${fn}: unknown argument(s): ${arg_UNPARSED_ARGUMENTS} (known: NAME CORPUS TARGETS "
                        "BACKEND BACKENDS CONCORD LABELS TIMEOUT)")
  endif()
  if(arg_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "${fn}: ${arg_KEYWORDS_MISSING_VALUES} given without a value")
  endif()
  foreach(required NAME CORPUS TARGETS)
    if(NOT DEFINED arg_${required})
      message(FATAL_ERROR "${fn}: ${required} is missing")
    endif()
  endforeach()
  if(DEFINED arg_TIMEOUT AND NOT arg_TIMEOUT MATCHES "^[0-9]+([.][0-9]+)?$")
    message(FATAL_ERROR "${fn}: TIMEOUT '${arg_TIMEOUT}' is not a number of seconds")
  endif()

  # The concord executable.
  if(DEFINED arg_CONCORD)
    set(concord "${arg_CONCORD}")
  elseif(TARGET concord::concord)
    set(concord "$<TARGET_FILE:concord::concord>")
  elseif(TARGET concord)
    set(concord "$<TARGET_FILE:concord>")
  elseif(CONCORD_EXECUTABLE)
    set(concord "${CONCORD_EXECUTABLE}")
  else()
    message(FATAL_ERROR "${fn}: no concord executable: call find_package(concord) first, or pass CONCORD <path>")
  endif()

  # Backends: built-in names, BACKEND NAME=COMMAND, BACKENDS files.
  set(declared oracle c erlang js elixir)
  set(backend_args "")
  foreach(b IN LISTS arg_BACKEND)
    if(NOT b MATCHES "^([A-Za-z0-9_.-]+)=(.*[^ \t].*)$")
      message(FATAL_ERROR "${fn}: BACKEND '${b}' is not NAME=COMMAND (NAME: 1 to 32 of A-Z a-z 0-9 _ - .)")
    endif()
    set(name "${CMAKE_MATCH_1}")
    string(LENGTH "${name}" length)
    if(length GREATER 32)
      message(FATAL_ERROR "${fn}: BACKEND name '${name}' is longer than 32 characters")
    endif()
    if(name STREQUAL "all" OR name IN_LIST declared)
      message(FATAL_ERROR "${fn}: BACKEND name '${name}' is taken (all, oracle, c, erlang, js, elixir, or declared twice)")
    endif()
    list(APPEND declared "${name}")
    string(REPLACE ";" "\\;" b "${b}")  # one argument, even with a ';' in the command
    list(APPEND backend_args --backend "${b}")
  endforeach()
  foreach(f IN LISTS arg_BACKENDS)
    get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${f}" OR IS_DIRECTORY "${f}")
      message(FATAL_ERROR "${fn}: BACKENDS file '${f}' does not exist")
    endif()
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${f}")
    file(READ "${f}" json)
    string(JSON count ERROR_VARIABLE json_error LENGTH "${json}" backends)
    if(json_error)
      message(FATAL_ERROR "${fn}: BACKENDS file '${f}' has no \"backends\" object: ${json_error}")
    endif()
    if(count GREATER 0)
      math(EXPR last "${count} - 1")
      foreach(i RANGE ${last})
        string(JSON name MEMBER "${json}" backends ${i})
        list(APPEND declared "${name}")
      endforeach()
    endif()
    list(APPEND backend_args --backends "${f}")
  endforeach()
  list(REMOVE_DUPLICATES arg_TARGETS)
  foreach(t IN LISTS arg_TARGETS)
    if(NOT t IN_LIST declared AND NOT t STREQUAL "all")
      set(hint "")
      if(t MATCHES "^[A-Z][A-Z_]*$")  # a keyword misspelt after TARGETS reads as a target
        set(hint " (a misspelt keyword? known: NAME CORPUS TARGETS BACKEND BACKENDS CONCORD LABELS TIMEOUT)")
      endif()
      message(FATAL_ERROR "${fn}: target '${t}' is neither built in (oracle, c, erlang, js, elixir) nor declared by "
                          "BACKEND or BACKENDS${hint}")
    endif()
  endforeach()

  # Case files: folders searched recursively, single files as they are.
  set(cases "")
  foreach(c IN LISTS arg_CORPUS)
    get_filename_component(path "${c}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(IS_DIRECTORY "${path}")
      file(GLOB_RECURSE found CONFIGURE_DEPENDS "${path}/*.case.json")
      if(NOT found)
        message(FATAL_ERROR "${fn}: CORPUS folder '${path}' has no *.case.json files")
      endif()
      list(SORT found)
      list(APPEND cases ${found})
    elseif(EXISTS "${path}" AND path MATCHES "[.]case[.]json$")
      list(APPEND cases "${path}")
    elseif(EXISTS "${path}")
      message(FATAL_ERROR "${fn}: CORPUS file '${path}' is not a case file (*.case.json)")
    else()
      message(FATAL_ERROR "${fn}: CORPUS '${path}' does not exist")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES cases)

  # One test per case and target.
  set(seen "")
  foreach(case IN LISTS cases)
    get_filename_component(file_name "${case}" NAME)
    string(REGEX REPLACE "[.]case[.]json$" "" case_name "${file_name}")
    if(case_name IN_LIST seen)
      message(FATAL_ERROR "${fn}: two case files are named '${case_name}' (the second: ${case}); "
                          "test names need distinct case names")
    endif()
    list(APPEND seen "${case_name}")
    foreach(t IN LISTS arg_TARGETS)
      set(labels concord "${t}" ${arg_LABELS})
      list(REMOVE_DUPLICATES labels)
      set(test "${arg_NAME}/${t}/${case_name}")
      add_test(NAME "${test}" COMMAND "${concord}" corpus "${case}" --target "${t}" ${backend_args})
      set_tests_properties("${test}" PROPERTIES LABELS "${labels}" SKIP_RETURN_CODE 4)
      if(DEFINED arg_TIMEOUT)
        set_tests_properties("${test}" PROPERTIES TIMEOUT "${arg_TIMEOUT}")
      endif()
    endforeach()
  endforeach()
endfunction()
