# Publish the resolved options, so that the Rakefile (template rakefile) configures `rake lint` like
# .puppet-lint.rc, including the project's changes.
$s = $state['settings']
$state + {
  'published' => {
    'puppet_lint_config' => {
      'relative'         => $s['relative'],
      'disabled_checks'  => $s['disabled_checks'],
      'fail_on_warnings' => $s['fail_on_warnings'],
      'options'          => $s['options'],
      'ignore_paths'     => $s['ignore_paths'],
    },
  },
}
