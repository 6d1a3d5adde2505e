# Managed by Pantograph (template rspec); changes will be overwritten.
# Put the module's own setup in spec/spec_helper_local.rb.
# frozen_string_literal: true

RSpec.configure do |c|
  c.mock_with :rspec
end

require 'puppetlabs_spec_helper/module_spec_helper'
require 'rspec-puppet-facts'

require 'spec_helper_local' if File.file?(File.join(File.dirname(__FILE__), 'spec_helper_local.rb'))

include RspecPuppetFacts

default_facts = {
  puppetversion: Puppet.version,
  facterversion: Facter.version,
}

default_fact_files = [
  File.expand_path(File.join(File.dirname(__FILE__), 'default_facts.yml')),
  File.expand_path(File.join(File.dirname(__FILE__), 'default_module_facts.yml')),
]

default_fact_files.each do |f|
  next unless File.exist?(f) && File.readable?(f) && File.size?(f)

  begin
    require 'deep_merge'
    default_facts.deep_merge!(YAML.safe_load(File.read(f), permitted_classes: [], permitted_symbols: [], aliases: true))
  rescue StandardError => e
    RSpec.configuration.reporter.message "WARNING: Unable to load #{f}: #{e}"
  end
end

# The default facts win over those rspec-puppet-facts reads from facterdb.
default_facts.each do |fact, value|
  add_custom_fact fact, value, merge_facts: true
end

RSpec.configure do |c|
  c.default_facts = default_facts
  c.before :each do
    # Stricter than Puppet's defaults, so that mistakes fail the tests.
    Puppet.settings[:strict] = :warning
    Puppet.settings[:strict_variables] = true
  end
  c.filter_run_excluding(bolt: true) unless ENV['GEM_BOLT']

  # Keep backtraces to the module's own code.
  c.backtrace_exclusion_patterns = [
    %r{spec_helper},
    %r{gems},
  ]
end

# Defines the modules of a nested name (e.g. 'Puppet::Util'), for specs of code that expects them.
def ensure_module_defined(module_name)
  module_name.split('::').reduce(Object) do |last_module, next_module|
    last_module.const_set(next_module, Module.new) unless last_module.const_defined?(next_module, false)
    last_module.const_get(next_module, false)
  end
end
